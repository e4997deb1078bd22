import FuzzSupport
import Glibc

exit(runFuzzer { data, size in fuzzLogReader(data!, size) })
