import FuzzSupport
import Glibc

exit(runFuzzer { data, size in fuzzProfile(data!, size) })
