/// When QSO practice makes sense in the course (issue 39): a contact is call signs, reports and
/// names, so it fits once every character of the order is learned in receiving — before that a
/// learner meets characters the course has not taught. The overview offers it from there and
/// explains why; it can still be tried earlier.
public enum MorseQSOReadiness {
    /// The receive level from which QSO practice is offered: the order's last, where every
    /// character is practised.
    public static func recommendedLevel(for order: KochOrder) -> Int {
        order.levels.upperBound
    }

    /// Whether a learner at receive level `level` of `order` is ready for a contact.
    public static func isReady(receiveLevel level: Int, order: KochOrder) -> Bool {
        level >= recommendedLevel(for: order)
    }
}
