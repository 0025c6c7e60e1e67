file(REMOVE_RECURSE
  "libargus_engine.a"
)
