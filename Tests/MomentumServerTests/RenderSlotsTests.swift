import Testing

@testable import MomentumServer

@Suite("Turns for rendering")
struct RenderSlotsTests {
    /// Lets other tasks run until `condition` holds; no clock involved.
    func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func thereAreAsManyTurnsAsTheLimitThenNoRoomIsBusy() async throws {
        let slots = RenderSlots(limits: RenderLimits(concurrentRenders: 2, waitingRenders: 0))
        let first = try await slots.take()
        let second = try await slots.take()
        await #expect(throws: RenderSlots.Busy.self) { try await slots.take() }
        #expect(slots.running == 2)
        withExtendedLifetime((first, second)) {}
    }

    @Test func aReleasedTurnGoesToTheFirstWaiter() async throws {
        let slots = RenderSlots(
            limits: RenderLimits(concurrentRenders: 1, waitingRenders: 1, longestWait: .seconds(3600)))
        var first: RenderSlot? = try await slots.take()
        let waiter = Task { try await slots.take() }
        await until { slots.waiting == 1 }
        // The queue is full: a third is turned away at once.
        await #expect(throws: RenderSlots.Busy.self) { try await slots.take() }
        first = nil
        let second = try await waiter.value
        #expect(slots.running == 1)
        #expect(slots.waiting == 0)
        withExtendedLifetime((first, second)) {}
    }

    @Test func aWaiterWhoseClientLeftGivesUpItsPlace() async throws {
        let slots = RenderSlots(
            limits: RenderLimits(concurrentRenders: 1, waitingRenders: 1, longestWait: .seconds(3600)))
        var first: RenderSlot? = try await slots.take()
        let waiter = Task { try await slots.take() }
        await until { slots.waiting == 1 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(slots.waiting == 0)
        first = nil
        #expect(slots.running == 0)
        withExtendedLifetime(first) {}
    }

    @Test func aWaitLongerThanAllowedIsBusy() async throws {
        let slots = RenderSlots(limits: RenderLimits(concurrentRenders: 1, waitingRenders: 4, longestWait: .zero))
        let first = try await slots.take()
        await #expect(throws: RenderSlots.Busy.self) { try await slots.take() }
        #expect(slots.waiting == 0)
        #expect(slots.running == 1)
        withExtendedLifetime(first) {}
    }
}
