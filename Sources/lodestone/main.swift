// lodestone: a compass and heading toolkit. See `lodestone --help`.
import Glibc

// A write to a closed pipe is an error (EPIPE) to end on quietly, not a signal that kills; a write
// past a file-size limit (`ulimit -f`) is EFBIG to report, not SIGXFSZ. Spawned commands get the
// default actions back (`withCleanSpawnAttributes`).
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
