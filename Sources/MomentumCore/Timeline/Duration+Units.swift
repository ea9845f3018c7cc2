extension Duration {
    /// The duration in whole milliseconds, rounded toward zero: the unit of storage and the wire.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration in whole seconds, rounded toward zero.
    public var wholeSeconds: Int64 { components.seconds }

    /// The duration in seconds as a floating-point number, for display and ratios.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// A duration of `minutes` minutes.
    public static func minutes(_ minutes: Int) -> Duration { .seconds(minutes * 60) }
}
