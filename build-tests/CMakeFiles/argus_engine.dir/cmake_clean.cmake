file(REMOVE_RECURSE
  "CMakeFiles/argus_engine.dir/src/engine/data/column.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/data/column.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/data/dataset.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/data/dataset.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/data/design_storage.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/data/design_storage.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/data/id_index.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/data/id_index.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/data/row_plan.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/data/row_plan.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/device/cuda_info_stub.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/device/cuda_info_stub.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/device/dispatch.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/device/dispatch.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/models/conditional_likelihood.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/models/conditional_likelihood.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/models/likelihood.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/models/likelihood.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/models/model_type.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/models/model_type.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/solver/ccd_solver.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/solver/ccd_solver.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/solver/convergence.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/solver/convergence.cpp.o.d"
  "CMakeFiles/argus_engine.dir/src/engine/solver/cpu_cycle_runner.cpp.o"
  "CMakeFiles/argus_engine.dir/src/engine/solver/cpu_cycle_runner.cpp.o.d"
  "libargus_engine.a"
  "libargus_engine.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/argus_engine.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
