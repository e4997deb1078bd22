import Platform

/// A request the session cannot carry out as given (out-of-range or contradictory values that the
/// command line let through): a usage error, exit 64, with what is wrong.
public struct InvalidRequest: UserFacingError {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var exitCode: ExitCode { .usage }
}
