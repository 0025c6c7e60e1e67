# Empty dependencies file for argus_engine.
# This may be replaced when dependencies are built.
