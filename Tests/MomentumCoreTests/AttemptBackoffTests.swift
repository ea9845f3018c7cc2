import Foundation
import MomentumCore
import Testing

@Suite("The back-off of wrong guesses")
struct AttemptBackoffTests {
    @Test(arguments: [(0, 0), (5, 0), (6, 1), (7, 2), (9, 8), (15, 512), (16, 900), (1_000_000, 900)])
    func eachGuessBeyondTheForgivenDoublesTheWait(failures: Int, seconds: Int) {
        #expect(AttemptBackoff().wait(afterFailures: failures) == .seconds(seconds))
    }

    @Test func anHourWithoutAWrongGuessStartsAfresh() {
        let backoff = AttemptBackoff()
        var record = AttemptRecord()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for _ in 0..<10 { record.recordFailure(at: start, backoff: backoff) }
        #expect(record.nextAttempt(after: start, backoff: backoff) == start.addingTimeInterval(16))
        #expect(record.nextAttempt(after: start.addingTimeInterval(16), backoff: backoff) == nil)
        record.recordFailure(at: start.addingTimeInterval(3_600), backoff: backoff)
        #expect(record.failures == 1)
    }
}
