import BuildInfo
import Options
import Session

/// Lodestone's whole command line, from the registered commands (`allCommands`): the overview, the man
/// page (`lodestone help --man`, used by `make build` and `make deb`) and the shell completions
/// (`lodestone completion SHELL`) are generated from it.
var lodestoneInterface: ProgramInterface {
    ProgramInterface(
        name: "lodestone",
        version: lodestoneVersion,
        summary: "a compass and heading toolkit for I²C magnetometers and gpsd",
        description: """
        Lodestone reads an I²C magnetometer (and an accelerometer and gyroscope when there is one),
        calibrates it, compensates tilt, smooths the heading, adds the World Magnetic Model's
        declination for true north (from a gpsd fix, a given place, or a given declination), says how
        accurate the result is, and shows, logs or publishes it. Every sensor and GNSS command runs
        without hardware with --simulate.
        Root is never needed: membership of the i2c group gives access to /dev/i2c-*, and gpsd is read
        over its socket.
          lodestone detect
          lodestone calibrate
          lodestone watch
          lodestone watch --simulate
        """,
        commands: allCommands.map { $0.spec },
        overviewNotes: [
            "Run 'lodestone COMMAND --help' for a command's options. 'lodestone --version' prints the version.",
            "Try it without hardware: lodestone watch --simulate",
            "Exit codes: 0 ok, 64 usage, 65 bad data, 69 unavailable (no sensor, no gpsd), 74 I/O error.",
        ],
        sections: [
            ManSection("Exit status", """
            0 success; 64 a usage error (an unknown option, a value out of range); 65 bad data (an
            unreadable recording or log, a corrupt profile); 69 unavailable (no I²C bus, no permission,
            no sensor answering, gpsd unreachable, no fix in time, a port in use); 74 an I/O error (a
            full disk).
            """),
            ManSection("Environment", """
            XDG_CONFIG_HOME, HOME: the calibration profiles and the dashboard's preferences are kept in
            $XDG_CONFIG_HOME/lodestone, else $HOME/.config/lodestone.
            GPSD_UNITS: metric, imperial or nautical, for distances and speeds when --units is not given.
            LC_ALL, LC_CTYPE, LANG: a locale that is not UTF-8 draws the dashboard in ASCII.
            NO_COLOR, TERM=dumb: no colours.
            The hooks of 'lodestone regions' (--on-enter, --on-exit) get lodestone's environment plus
            \(RegionsSession.hookEnvironment.map { $0.0 + ": " + $0.1 }.joined(separator: "; ")).
            """),
            ManSection("Files", """
            $XDG_CONFIG_HOME/lodestone/calibration.json: the calibration profiles, one per sensor.
            $XDG_CONFIG_HOME/lodestone/dashboard.conf: the dashboard's remembered speed unit.
            /etc/lodestone/lodestone.conf: the options of the lodestone-serve and lodestone-log services
            (installed by the Debian package).
            /etc/lodestone/calibration.json: the calibration profile the services use.
            /var/lib/lodestone/heading.csv: what lodestone-log.service writes.
            """),
            ManSection("JSON output", """
            Every JSON object and CSV column names a quantity as the CSV log does (lat_deg, lon_deg, alt_m
            above mean sea level, gnss_mode 2d, 3d or no_fix, time in ISO 8601 UTC); every key is always
            present, null when the value is unknown. One JSON Schema (Draft 2020-12) per record kind, with
            each property's unit, is in the project's schema/ folder (installed under
            /usr/share/doc/lodestone/schema by the Debian package): heading-update, fix, movement,
            region-event, place, goto-guidance, position (where --json), analysis-summary,
            heading-replay (heading --from-file --format json), declination, geodesic (geod --json)
            detection (detect --json) and serve-event (MQTT event).
            """),
            ManSection("See also", """
            gpsd(8), i2cdetect(8), systemctl(1), journalctl(1).
            The README, the hardware pages and the systemd units are in /usr/share/doc/lodestone
            (Debian package) and at the project's repository.
            """),
        ])
}

/// `lodestone --version`: the version, the git commit and the build date ("unknown" when built
/// without the Makefile).
func versionText() -> String {
    let commit = String(cString: lodestone_build_commit())
    let date = String(cString: lodestone_build_date())
    return "lodestone \(lodestoneVersion) (commit \(commit), built \(date))\n"
}

/// The build date for the man page's title line, nil when unknown.
func buildDate() -> String? {
    let date = String(cString: lodestone_build_date())
    return date == "unknown" ? nil : date
}
