import FuzzSupport
import Glibc

exit(runFuzzer { data, size in fuzzRecording(data!, size) })
