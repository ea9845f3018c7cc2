import NIOCore
import NIOEmbedded
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

/// A render no one reads (issue 46: a person holding the render turns by not reading) gives way.
@Suite("Stalled renders")
struct StalledRenderTests {
    @Test func aRenderUnreadForTheGraceHasItsConnectionClosedWhenSomeoneNeedsTheTurn() async throws {
        let clock = ManualInstants()
        let slots = RenderSlots(
            limits: RenderLimits(concurrentRenders: 1, waitingRenders: 0), now: { clock.now })
        let unread = EmbeddedChannel()
        try await unread.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).get()
        var held: RenderSlot? = try await slots.take(connection: unread)
        clock.advance(by: .seconds(59))
        await #expect(throws: RenderSlots.Busy.self) { try await slots.take() }
        #expect(unread.isActive)

        clock.advance(by: .seconds(1))
        await #expect(throws: RenderSlots.Busy.self) { try await slots.take() }
        #expect(!unread.isActive)
        // Its write fails, its body ends and the turn comes back.
        held = nil
        let next = try await slots.take()
        withExtendedLifetime((held, next)) {}
    }

    @Test func aRenderThatIsReadKeepsItsTurn() async throws {
        let clock = ManualInstants()
        let slots = RenderSlots(
            limits: RenderLimits(concurrentRenders: 1, waitingRenders: 0), now: { clock.now })
        let reading = EmbeddedChannel()
        try await reading.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).get()
        let held = try await slots.take(connection: reading)
        for _ in 0..<5 {
            clock.advance(by: .seconds(30))
            held.progressed()
            await #expect(throws: RenderSlots.Busy.self) { try await slots.take() }
        }
        #expect(reading.isActive)
    }
}
