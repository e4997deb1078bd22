import Glibc

/// Time sources. Monotonic time drives filters and pacing; wall-clock time labels samples and logs.
///
/// ```swift
/// let t0 = Clock.monotonic()
/// Clock.sleep(seconds: 0.05)
/// let elapsed = Clock.monotonic() - t0
/// ```
public enum Clock {
    /// Seconds on the monotonic clock (never jumps with NTP or the user).
    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Unix time in seconds (UTC), with sub-second precision.
    public static func wall() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Sleeps for the given time; returns early only if `seconds` ≤ 0. Signals do not cut it short.
    public static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }

    /// Sleeps until the monotonic clock reaches `deadline` (for drift-free schedules).
    public static func sleep(until deadline: Double) {
        sleep(seconds: deadline - monotonic())
    }
}
