import Dispatch

extension Duration {
    /// The duration in seconds, as a `Double` (for printing and for the deprecated `Double`
    /// properties).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }

    /// Whole nanoseconds, truncated toward zero (saturating past about 292 years).
    package var inNanoseconds: Int64 {
        let (whole, overflowed) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflowedAgain) = whole.addingReportingOverflow(components.attoseconds / 1_000_000_000)
        guard !overflowed, !overflowedAgain else { return components.seconds < 0 ? .min : .max }
        return sum
    }

    /// `seconds` rounded to the nearest nanosecond (NaN as zero, saturating past about 292 years).
    package static func rounded(seconds: Double) -> Duration {
        guard !seconds.isNaN else { return .zero }
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds.magnitude < 9.2e18 else { return .nanoseconds(nanoseconds < 0 ? Int64.min : Int64.max) }
        return .nanoseconds(Int64(nanoseconds))
    }
}

extension ContinuousClock.Instant {
    /// This instant on `DispatchTime`'s clock (`uptimeNanoseconds`), for the deprecated `UInt64`
    /// properties. The two clocks differ only while the machine sleeps.
    package var uptimeNanoseconds: UInt64 {
        let age = (ContinuousClock.now - self).inNanoseconds
        let uptime = Int64(clamping: DispatchTime.now().uptimeNanoseconds)
        let (value, overflow) = uptime.subtractingReportingOverflow(age)
        return overflow ? (age < 0 ? .max : 0) : UInt64(clamping: value)
    }

    /// The instant `DispatchTime(uptimeNanoseconds:)` names.
    package init(uptimeNanoseconds: UInt64) {
        let age = Int64(clamping: DispatchTime.now().uptimeNanoseconds) - Int64(clamping: uptimeNanoseconds)
        self = ContinuousClock.now - .nanoseconds(age)
    }
}
