import Places
import Platform

/// The user's places file, `$XDG_CONFIG_HOME/lodestone/places.csv` (else
/// `~/.config/lodestone/places.csv`): read when a command needs places, written atomically by
/// `places add` and `places remove`.
public struct PlacesStore: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The default file in the environment's config folder; nil when neither XDG_CONFIG_HOME nor
    /// HOME is set.
    public init?(environment: EnvironmentValues) {
        guard let folder = environment.configFolder else { return nil }
        path = folder + "/places.csv"
    }

    /// The places in the file; none when it does not exist.
    public func load() throws(PlacesStoreError) -> [UserPlace] {
        let text: String?
        do { text = try Files.readTextIfPresent(path) } catch {
            if case .notRegular = error { throw .notAFile(path: path) }
            throw .unreadable(path: path, error.message)
        }
        guard let text else { return [] }
        do { return try PlacesFile.parse(text) } catch { throw .corrupt(path: path, error.message) }
    }

    /// Writes the places atomically (a killed write leaves the old file).
    public func save(_ places: [UserPlace]) throws(PlacesStoreError) {
        do { try Files.saveCreatingFolders(path, contents: PlacesFile.serialize(places)) } catch {
            throw .unwritable(path: path, error.message)
        }
    }
}

/// Problems with the places file, each naming it.
public enum PlacesStoreError: UserFacingError {
    case noConfigFolder
    case unreadable(path: String, String)
    case corrupt(path: String, String)
    case unwritable(path: String, String)
    /// A device, a FIFO or a folder where the file should be: refused before it is read.
    case notAFile(path: String)

    public var message: String {
        switch self {
        case .noConfigFolder: return "neither XDG_CONFIG_HOME nor HOME is set, so there is no places file: set HOME (the file is "
            + "~/.config/lodestone/places.csv) or XDG_CONFIG_HOME"
        case .unreadable(let path, let why): return "cannot read the places file \(path): \(why)"
        case .corrupt(let path, let why): return "the places file \(path) cannot be used: \(why)\n(the file was left as it is)"
        case .notAFile(let path):
            return "\(path) is not a regular file (a device, a pipe or a folder), so it cannot be read as the places file: name a file" 
        case .unwritable(let path, let why): return "cannot save the places file \(path): \(why)\n(the previous file, if any, is unchanged)"
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .noConfigFolder: return .usage
        case .corrupt, .notAFile: return .dataError
        case .unreadable, .unwritable: return .ioError
        }
    }
}
