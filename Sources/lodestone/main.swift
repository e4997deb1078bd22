// lodestone: a compass and heading toolkit. See `lodestone --help`.
import Glibc

exit(Dispatcher.run(Array(CommandLine.arguments.dropFirst())).rawValue)
