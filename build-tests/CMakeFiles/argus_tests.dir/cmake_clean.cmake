file(REMOVE_RECURSE
  "CMakeFiles/argus_tests.dir/tests/cpp/convergence_test.cpp.o"
  "CMakeFiles/argus_tests.dir/tests/cpp/convergence_test.cpp.o.d"
  "CMakeFiles/argus_tests.dir/tests/cpp/finite_difference_test.cpp.o"
  "CMakeFiles/argus_tests.dir/tests/cpp/finite_difference_test.cpp.o.d"
  "CMakeFiles/argus_tests.dir/tests/cpp/likelihood_oracle_test.cpp.o"
  "CMakeFiles/argus_tests.dir/tests/cpp/likelihood_oracle_test.cpp.o.d"
  "CMakeFiles/argus_tests.dir/tests/cpp/prior_step_test.cpp.o"
  "CMakeFiles/argus_tests.dir/tests/cpp/prior_step_test.cpp.o.d"
  "CMakeFiles/argus_tests.dir/tests/cpp/smoke_test.cpp.o"
  "CMakeFiles/argus_tests.dir/tests/cpp/smoke_test.cpp.o.d"
  "argus_tests"
  "argus_tests.pdb"
  "argus_tests[1]_tests.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/argus_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
