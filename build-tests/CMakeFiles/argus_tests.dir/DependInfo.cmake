
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tests/cpp/convergence_test.cpp" "CMakeFiles/argus_tests.dir/tests/cpp/convergence_test.cpp.o" "gcc" "CMakeFiles/argus_tests.dir/tests/cpp/convergence_test.cpp.o.d"
  "/work/main/tests/cpp/finite_difference_test.cpp" "CMakeFiles/argus_tests.dir/tests/cpp/finite_difference_test.cpp.o" "gcc" "CMakeFiles/argus_tests.dir/tests/cpp/finite_difference_test.cpp.o.d"
  "/work/main/tests/cpp/likelihood_oracle_test.cpp" "CMakeFiles/argus_tests.dir/tests/cpp/likelihood_oracle_test.cpp.o" "gcc" "CMakeFiles/argus_tests.dir/tests/cpp/likelihood_oracle_test.cpp.o.d"
  "/work/main/tests/cpp/prior_step_test.cpp" "CMakeFiles/argus_tests.dir/tests/cpp/prior_step_test.cpp.o" "gcc" "CMakeFiles/argus_tests.dir/tests/cpp/prior_step_test.cpp.o.d"
  "/work/main/tests/cpp/smoke_test.cpp" "CMakeFiles/argus_tests.dir/tests/cpp/smoke_test.cpp.o" "gcc" "CMakeFiles/argus_tests.dir/tests/cpp/smoke_test.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build-tests/CMakeFiles/argus_engine.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
