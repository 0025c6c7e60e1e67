# Empty dependencies file for argus_tests.
# This may be replaced when dependencies are built.
