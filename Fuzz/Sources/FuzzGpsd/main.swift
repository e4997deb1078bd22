import FuzzSupport
import Glibc

exit(runFuzzer { data, size in fuzzGpsd(data!, size) })
