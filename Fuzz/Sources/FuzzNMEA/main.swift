import FuzzSupport
import Glibc

exit(runFuzzer { data, size in fuzzNMEA(data!, size) })
