import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import MomentumServer

/// The household shares the audio streams (issue 46): no one holds them all, and a stream no one
/// reads gives way when someone else needs its turn.
@Suite("Stream turns")
struct StreamTurnsTests {
    private static let ada: Int64 = 1
    private static let ben: Int64 = 2

    private func connection() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).wait()
        return channel
    }

    @Test func onePersonGetsHalfTheStreamsAndTheOthersTheRest() throws {
        let turns = StreamTurns(limit: 16)
        var held: [StreamTurn] = []
        for _ in 0..<16 {
            if let turn = turns.take(for: Self.ben, connection: try connection()) { held.append(turn) }
        }
        #expect(held.count == 8)
        let ada = try #require(turns.take(for: Self.ada, connection: try connection()))
        #expect(turns.count == 9)
        _ = ada
    }

    @Test func aStreamNoOneReadsGivesWayToSomeoneWhoNeedsItsTurn() throws {
        let clock = ManualInstants()
        let turns = StreamTurns(limit: 2, stallGrace: .seconds(60), now: { clock.now })
        let stalled = try connection()
        let reading = try connection()
        let cleo: Int64 = 3
        let held = [
            try #require(turns.take(for: Self.ben, connection: stalled)),
            try #require(turns.take(for: Self.ada, connection: reading)),
        ]
        #expect(turns.take(for: cleo, connection: try connection()) == nil)

        clock.advance(by: .seconds(59))
        held[1].progressed()
        #expect(turns.take(for: cleo, connection: try connection()) == nil)

        clock.advance(by: .seconds(1))
        let cleos = try #require(turns.take(for: cleo, connection: try connection()))
        #expect(!stalled.isActive)
        #expect(reading.isActive)
        _ = cleos
    }

    @Test func aFullShareGivesUpItsOwnStalledStreamFirst() throws {
        let clock = ManualInstants()
        let turns = StreamTurns(limit: 4, stallGrace: .seconds(60), now: { clock.now })
        let adasStalled = try connection()
        let bensStalled = try connection()
        let bensPlaying = try connection()
        let held = [
            try #require(turns.take(for: Self.ada, connection: adasStalled)),
            try #require(turns.take(for: Self.ben, connection: bensStalled)),
            try #require(turns.take(for: Self.ben, connection: bensPlaying)),
        ]
        clock.advance(by: .seconds(50))
        held[2].progressed()
        clock.advance(by: .seconds(40))
        // Ben's share (2 of 4) is full: his own stalled stream goes, not Ada's, stalled as long.
        let more = try #require(turns.take(for: Self.ben, connection: try connection()))
        #expect(!bensStalled.isActive)
        #expect(adasStalled.isActive && bensPlaying.isActive)
        #expect(turns.count == 3)
        _ = more
    }

    @Test func aTurnGoesBackWhenItsStreamEnds() throws {
        let turns = StreamTurns(limit: 1)
        var turn = turns.take(for: Self.ada, connection: nil)
        #expect(turn != nil)
        #expect(turns.take(for: Self.ben, connection: nil) == nil)
        turn = nil
        #expect(turns.take(for: Self.ben, connection: nil) != nil)
    }
}
