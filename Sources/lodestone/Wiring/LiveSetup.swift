import Calibration
import GNSS
import Heading
import Options
import Platform
import Sensors
import Simulation

/// Opens everything a live command needs: sensors, the calibration profile (said on stderr), the
/// heading pipeline, and the GNSS source (the simulated receiver with --simulate, gpsd otherwise,
/// none with --no-gnss).
func openLiveSession(_ arguments: ParsedArguments, headingOptions: HeadingOptions, signals: SignalWatcher,
                     distanceFilter: Double, command: String) throws -> LiveSession {
    let source = try openSensorSource(arguments)
    let (profile, description) = try loadProfile(for: source.info, explicitPath: arguments.string("calibration"),
                                                 simulated: source.isSimulated)
    StandardOutput.error("lodestone \(command): \(source.isSimulated ? "simulated " : "")\(source.info.summary); " + description)
    let reader = source.makeReader(clock: ReaderClock(
        monotonic: { Clock.monotonic() }, wall: { Clock.wall() }, sleep: { _ = signals.wait(seconds: $0) }))
    var configuration = headingOptions.configuration
    if headingOptions.deviation == nil && profile?.deviation == nil { configuration.deviationMode = .off }
    let pipeline = HeadingPipeline(reader: reader, profile: profile, configuration: configuration,
                                   userOrientation: arguments.string("orientation") != nil)
    var gnss: (any GNSSSource)?
    if !arguments.flag("no-gnss") {
        if source.isSimulated && arguments.string("gpsd") == nil {
            gnss = GNSSWiring.simulatedSource()
        } else {
            gnss = try GNSSWiring.gpsdSource(arguments.string("gpsd"))
        }
    }
    return LiveSession(pipeline: pipeline, gnss: gnss, distanceFilter: distanceFilter,
                       learnsDeviation: headingOptions.deviation == .learn, simulated: source.isSimulated)
}

/// Saves the learned deviation card into the sensor's profile (atomic; a corrupt file is left alone).
func storeDeviation(_ live: LiveSession, explicitPath: String?) throws {
    guard var profile = live.pipeline.profile else {
        StandardOutput.error("lodestone: the learned deviation card was not saved: there is no calibration profile to keep it in (run 'lodestone calibrate')")
        return
    }
    profile.deviation = DeviationCard(corrections: live.pipeline.filter.deviationTable.corrections)
    let store = try ProfileStore(path: explicitPath)
    try store.save(profile)
    StandardOutput.error("lodestone: deviation card (\(live.deviationLearned) observations) saved to \(abbreviatingHome(store.path))")
}
