import Testing

@testable import MomentumCore

/// Issue 39: QSO practice is offered once every character of the order is learned in receiving.
@Suite("QSO readiness: a contact is offered from the level where every character is known")
struct MorseQSOReadinessTests {
    @Test func theRecommendedLevelIsTheOrdersLastWhereEveryCharacterIsPractised() {
        for order in [KochOrder.standard, .extended] {
            let level = MorseQSOReadiness.recommendedLevel(for: order)
            #expect(order.characters(atLevel: level).count == order.symbols.count)
            #expect(order.characters(atLevel: level - 1).count < order.symbols.count)
        }
        #expect(MorseQSOReadiness.recommendedLevel(for: .standard) == 25)
    }

    @Test func aLearnerIsReadyAtTheLevelAndNotBefore() {
        #expect(!MorseQSOReadiness.isReady(receiveLevel: 1, order: .standard))
        #expect(!MorseQSOReadiness.isReady(receiveLevel: 24, order: .standard))
        #expect(MorseQSOReadiness.isReady(receiveLevel: 25, order: .standard))
    }
}
