extension Duration {
    /// `units` ticks of a clock running at `unitsPerSecond` (samples at a sample rate, an MP4
    /// timescale), exact to the attosecond; `nil` when it does not fit or the clock is stopped.
    ///
    /// ```swift
    /// Duration.ticks(116 * 1152, per: 44_100)  // 3.030204… s
    /// ```
    static func ticks(_ units: UInt64, per unitsPerSecond: UInt64) -> Duration? {
        guard unitsPerSecond > 0, let seconds = Int64(exactly: units / unitsPerSecond) else { return nil }
        let remainder = units % unitsPerSecond
        // remainder × 10¹⁸ needs 128 bits; the quotient is below 10¹⁸ because remainder < unitsPerSecond.
        let product = remainder.multipliedFullWidth(by: 1_000_000_000_000_000_000)
        let attoseconds = unitsPerSecond.dividingFullWidth(product).quotient
        return Duration(secondsComponent: seconds, attosecondsComponent: Int64(attoseconds))
    }
}
