import Geodesy
import GNSS
import Platform
import Simulation

/// The simulated receiver: a walk around the simulator's place, fixes at 1 Hz with ~3 m noise, on
/// the session's clock.
///
/// ```swift
/// let gnss = simulatedGNSS(time: runtime.time)
/// gnss.start()
/// ```
/// With `scenario` (the simulated sensors' motion), the receiver moves along its ground track, so
/// course and heading agree; with `start` (`--location`), it starts there instead of Sydney.
public func simulatedGNSS(time: any TimeSource, scenario: AttitudeScenario? = nil,
                          start: (latitude: Double, longitude: Double)? = nil) -> any GNSSSource {
    var settings = GNSSWalkSettings(motion: .walk, startTime: time.wall().rounded(.down))
    if let start {
        settings.originLatitude = start.latitude
        settings.originLongitude = start.longitude
    }
    settings.horizontalError = 3
    let seed = UInt64(truncatingIfNeeded: Int64(time.wall() * 1000))
    return SimulatedGNSSSource(walk: GNSSWalk(settings: settings, seed: seed, steering: scenario?.groundTrackOverTime),
                               clock: { time.monotonic() })
}

/// Where `track` and `where` read fixes: gpsd, or the simulated receiver.
public enum GNSSSourceChoice: Sendable, Equatable {
    case gpsd(GpsdAddress)
    /// The simulated receiver, starting at `start` (`--simulate --location LAT,LON`); nil: at the
    /// simulator's own place, Sydney.
    case simulation(start: GeoPoint?)

    /// The simulated receiver at the simulator's own place.
    public static let simulated = GNSSSourceChoice.simulation(start: nil)

    /// Opens the source (not yet started).
    public func open(time: any TimeSource) -> any GNSSSource {
        switch self {
        case .gpsd(let address): return GpsdClient(address: address, time: time)
        case .simulation(let start):
            return simulatedGNSS(time: time, start: start.map { ($0.latitude, $0.longitude) })
        }
    }
}

/// A one-line description of a GNSS state for stderr and the dashboard.
func describe(_ state: GNSSState, source: any GNSSSource) -> String {
    switch state {
    case .connecting: return "connecting to \(source.name)"
    case .connected: return "connected to \(source.name)"
    case .waitingForFix: return "connected to \(source.name), waiting for a fix"
    case .timeFrozen: return "connected to \(source.name), but " + state.description.dropFirst("connected, but ".count)
    case .disconnected(let error): return error.message
    }
}
