/// How much space a device gives the sound of the practices it keeps for practising with the
/// server out of reach (docs/offline.md), in MB of 1,000,000 bytes. The device keeps the value
/// (it is its own storage); its bounds and default are these, offered to the page as the form
/// field `offline.budgetMB` (``FormBounds``). 0 keeps nothing.
public enum OfflineBudget {
    public static let megabytes: ClosedRange<Int> = 0...10_000
    public static let defaultMegabytes = 200
}
