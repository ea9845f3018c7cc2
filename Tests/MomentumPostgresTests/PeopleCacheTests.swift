import Foundation
import MomentumCore
import Testing

@testable import MomentumPostgres

/// The household's people kept by a PostgreSQL server between requests (`PostgresStore.people()`).
@Suite("PostgreSQL: the people kept between requests")
struct PeopleCacheTests {
    let ada = Person(id: 1, name: "Ada", role: .owner, createdAt: Date(timeIntervalSince1970: 0))
    let ben = Person(id: 2, name: "Ben", role: .member, createdAt: Date(timeIntervalSince1970: 60))

    @Test func aListIsKeptForItsAgeAndThenReadAgain() {
        let cache = PeopleCache()
        let (none, generation) = cache.current(maximumAge: .seconds(60))
        #expect(none == nil)
        cache.keep([ada], readIn: generation)
        #expect(cache.current(maximumAge: .seconds(60)).people == [ada])
        // Older than the age allowed: read again.
        #expect(cache.current(maximumAge: .zero).people == nil)
    }

    @Test func thisProcesssChangeForgetsTheListAtOnce() {
        let cache = PeopleCache()
        cache.keep([ada], readIn: cache.current(maximumAge: .seconds(60)).generation)
        cache.forget()
        #expect(cache.current(maximumAge: .seconds(60)).people == nil)
    }

    @Test func aReadThatRacedWithAChangeNeverKeepsWhatItRead() {
        let cache = PeopleCache()
        // A request starts reading (the list without Ben) …
        let generation = cache.current(maximumAge: .seconds(60)).generation
        // … meanwhile this process adds Ben and forgets the list …
        cache.forget()
        // … and the older read must not become the kept list.
        cache.keep([ada], readIn: generation)
        #expect(cache.current(maximumAge: .seconds(60)).people == nil)
        let fresh = cache.current(maximumAge: .seconds(60)).generation
        cache.keep([ada, ben], readIn: fresh)
        #expect(cache.current(maximumAge: .seconds(60)).people == [ada, ben])
    }
}
