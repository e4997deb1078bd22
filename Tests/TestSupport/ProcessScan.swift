import Foundation

/// The processes whose command line holds `marker` (a test's own argument no one else uses, such as
/// `sleep 30.0417`), from /proc. A zombie has an empty command line and is not counted: it holds nothing.
public func processes(withCommandLineContaining marker: String) -> [pid_t] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name -> pid_t? in
        guard let pid = pid_t(name), let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else { return nil }
        return String(decoding: data, as: UTF8.self).contains(marker) ? pid : nil
    }
}
