import MomentumCore

extension Duration {
    /// The duration in milliseconds as a floating-point number, for comparing with tables.
    var inMilliseconds: Double { inSeconds * 1000 }

    /// Whether `self` and `other` differ by at most `tolerance`: durations built from `Double`
    /// seconds are only exact to about a nanosecond.
    func isWithin(_ tolerance: Duration, of other: Duration) -> Bool {
        self - other <= tolerance && other - self <= tolerance
    }
}
