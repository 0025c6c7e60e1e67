
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/engine/data/column.cpp" "CMakeFiles/argus_engine.dir/src/engine/data/column.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/data/column.cpp.o.d"
  "/work/main/src/engine/data/dataset.cpp" "CMakeFiles/argus_engine.dir/src/engine/data/dataset.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/data/dataset.cpp.o.d"
  "/work/main/src/engine/data/design_storage.cpp" "CMakeFiles/argus_engine.dir/src/engine/data/design_storage.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/data/design_storage.cpp.o.d"
  "/work/main/src/engine/data/id_index.cpp" "CMakeFiles/argus_engine.dir/src/engine/data/id_index.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/data/id_index.cpp.o.d"
  "/work/main/src/engine/data/row_plan.cpp" "CMakeFiles/argus_engine.dir/src/engine/data/row_plan.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/data/row_plan.cpp.o.d"
  "/work/main/src/engine/device/cuda_info_stub.cpp" "CMakeFiles/argus_engine.dir/src/engine/device/cuda_info_stub.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/device/cuda_info_stub.cpp.o.d"
  "/work/main/src/engine/device/dispatch.cpp" "CMakeFiles/argus_engine.dir/src/engine/device/dispatch.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/device/dispatch.cpp.o.d"
  "/work/main/src/engine/models/conditional_likelihood.cpp" "CMakeFiles/argus_engine.dir/src/engine/models/conditional_likelihood.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/models/conditional_likelihood.cpp.o.d"
  "/work/main/src/engine/models/likelihood.cpp" "CMakeFiles/argus_engine.dir/src/engine/models/likelihood.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/models/likelihood.cpp.o.d"
  "/work/main/src/engine/models/model_type.cpp" "CMakeFiles/argus_engine.dir/src/engine/models/model_type.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/models/model_type.cpp.o.d"
  "/work/main/src/engine/solver/ccd_solver.cpp" "CMakeFiles/argus_engine.dir/src/engine/solver/ccd_solver.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/solver/ccd_solver.cpp.o.d"
  "/work/main/src/engine/solver/convergence.cpp" "CMakeFiles/argus_engine.dir/src/engine/solver/convergence.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/solver/convergence.cpp.o.d"
  "/work/main/src/engine/solver/cpu_cycle_runner.cpp" "CMakeFiles/argus_engine.dir/src/engine/solver/cpu_cycle_runner.cpp.o" "gcc" "CMakeFiles/argus_engine.dir/src/engine/solver/cpu_cycle_runner.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
