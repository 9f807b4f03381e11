import Foundation

/// How many inference sessions a `Detector` or `Classifier` keeps, and for how long.
///
/// Each concurrent `detect`/`classify` call needs a session of its own (activation arena and
/// workspace: 20 MB for YOLOv3-tiny, 170 MB for YOLOv3 at 416). At most `maximumSessions`
/// exist at once; a call beyond that waits for one to be given back (synchronous calls block
/// their thread, `async` calls suspend without holding a thread). A session nobody used for
/// `idleTimeout` seconds is freed, so a burst of callers does not keep its memory.
public struct SessionPolicy: Sendable, Equatable {
    /// Sessions alive at once (at least 1). Default: the cores this process may use (`AvailableCores`).
    public var maximumSessions: Int
    /// Seconds an unused session is kept before its memory is freed (at least 0). Default 5.
    public var idleTimeout: Double

    /// A policy; `Detector` and `Classifier` reject one outside the documented ranges with an
    /// `ArgumentError`.
    public init(maximumSessions: Int = AvailableCores.count, idleTimeout: Double = 5) {
        self.maximumSessions = maximumSessions
        self.idleTimeout = idleTimeout
    }

    /// Throws unless `maximumSessions >= 1` and `idleTimeout >= 0`.
    public func validate() throws(ArgumentError) {
        try ArgumentError.require("SessionPolicy.maximumSessions", maximumSessions, atLeast: 1)
        try ArgumentError.require(idleTimeout >= 0, "SessionPolicy.idleTimeout", idleTimeout, expected: "a number of seconds >= 0")
    }
}

extension SessionPolicy {
    /// Throws unless `threads >= 1` and this policy is valid: what `Detector` and `Classifier`
    /// check before they load anything.
    package func validate(threads: Int) throws(ArgumentError) {
        try ArgumentError.require("threads", threads, atLeast: 1)
        try validate()
    }
}
