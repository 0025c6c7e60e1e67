# Database connections for the database-input tests: an in-memory RSQLite database, and a
# private PostgreSQL server (initdb into a temporary folder, a unix socket there, no TCP),
# started as the 'postgres' user when the tests run as root, and stopped afterwards.

haveDatabasePackages <- function() {
  all(vapply(c("DBI", "dplyr", "dbplyr", "RSQLite"), requireNamespace, TRUE, quietly = TRUE))
}

skipWithoutDatabasePackages <- function() {
  if (!haveDatabasePackages()) skip("DBI, dplyr, dbplyr and RSQLite are needed")
}

# Copies data frames into tables of `con` and returns dplyr tables of them.
databaseTables <- function(con, ...) {
  frames <- list(...)
  lapply(stats::setNames(names(frames), names(frames)), function(name) {
    DBI::dbWriteTable(con, name, frames[[name]], overwrite = TRUE)
    dplyr::tbl(con, name)
  })
}

postgresBinaries <- function() {
  found <- Sys.which(c("initdb", "pg_ctl"))
  if (all(nzchar(found))) return(dirname(found[["initdb"]]))
  dirs <- Sys.glob("/usr/lib/postgresql/*/bin")
  dirs <- dirs[file.exists(file.path(dirs, "initdb"))]
  if (length(dirs)) dirs[length(dirs)] else NULL
}

# A private PostgreSQL server, or the reason it could not be started (a string).
startPostgres <- function() {
  if (!requireNamespace("RPostgreSQL", quietly = TRUE)) return("RPostgreSQL is not installed")
  bin <- postgresBinaries()
  if (is.null(bin)) return("PostgreSQL (initdb, pg_ctl) is not installed")
  root <- tempfile("argus-pg-", tmpdir = "/tmp")
  dir.create(file.path(root, "socket"), recursive = TRUE)
  Sys.chmod(root, "0755")
  asRoot <- identical(unname(Sys.info()[["user"]]), "root")
  run <- function(program, args) {
    command <- file.path(bin, program)
    if (asRoot) {
      args <- c("-u", "postgres", "--", command, args)
      command <- Sys.which("runuser")
      if (!nzchar(command)) return(FALSE)
    }
    status <- suppressWarnings(system2(command, args, stdout = FALSE, stderr = FALSE))
    identical(as.integer(status), 0L)
  }
  if (asRoot && !identical(as.integer(system2("chown", c("-R", "postgres", root))), 0L))
    return("could not give the temporary folder to the 'postgres' user")
  data <- file.path(root, "data")
  if (!run("initdb", c("-D", data, "-A", "trust", "-U", "argus", "--locale=C", "-E", "UTF8")))
    return("initdb failed")
  options <- sprintf("-k %s -c listen_addresses=''", file.path(root, "socket"))
  if (!run("pg_ctl", c("-D", data, "-o", shQuote(options), "-l", file.path(root, "log"),
                       "-w", "start"))) {
    unlink(root, recursive = TRUE)
    return("pg_ctl start failed")
  }
  stop <- function() {
    run("pg_ctl", c("-D", data, "-m", "fast", "-w", "stop"))
    unlink(root, recursive = TRUE)
  }
  con <- tryCatch(DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = file.path(root, "socket"),
                                 user = "argus", dbname = "postgres"),
                  error = function(e) NULL)
  if (is.null(con)) {
    stop()
    return("could not connect to the private PostgreSQL server")
  }
  list(con = con, stop = function() {
    DBI::dbDisconnect(con)
    stop()
  })
}
