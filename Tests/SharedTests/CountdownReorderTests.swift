import PeerLinkCore
import CountdownDomain
import Testing

/// Moving goals, alone and on two replicas at once, merging each goal's priority as a
/// last-writer-wins register stamped (timestamp, replica).
@Suite struct CountdownReorderTests {
    typealias F = CountdownFixture
    static let step = CountdownGoalBook.priorityStep

    static func goals(_ count: Int, spacing: Int = step) -> [CountdownGoal] {
        (0..<count).map { F.dateGoal("g\($0)", "G\($0)", F.day(2026, 1, 1), priority: $0 * spacing, createdMs: 0) }
    }

    static func apply(_ changes: [CountdownGoal], to goals: [CountdownGoal]) -> [CountdownGoal] {
        goals.map { goal in changes.first { $0.id == goal.id } ?? goal }
    }

    static func moved(_ id: String, to position: Int, in goals: [CountdownGoal]) -> [String] {
        CountdownGoalBook.sorted(apply(CountdownGoalBook.move(goalID: id, to: position, in: goals), to: goals)).map(\.id)
    }

    // MARK: - One device

    @Test func moveWritesOnlyTheMovedGoalWhenThereIsRoom() {
        let goals = Self.goals(5)
        let changes = CountdownGoalBook.move(goalID: "g4", to: 1, in: goals)
        #expect(changes.map(\.id) == ["g4"])
        #expect(changes.first?.priority == Self.step / 2)
        #expect(Self.moved("g4", to: 1, in: goals) == ["g0", "g4", "g1", "g2", "g3"])
        #expect(Self.moved("g4", to: 0, in: goals) == ["g4", "g0", "g1", "g2", "g3"])
        #expect(Self.moved("g0", to: 4, in: goals) == ["g1", "g2", "g3", "g4", "g0"])
        #expect(Self.moved("g1", to: 3, in: goals) == ["g0", "g2", "g3", "g1", "g4"])
        #expect(Self.moved("g0", to: 99, in: goals) == ["g1", "g2", "g3", "g4", "g0"])
        #expect(Self.moved("g3", to: -5, in: goals) == ["g3", "g0", "g1", "g2", "g4"])
    }

    @Test func moveToTheSamePlaceOrOfAnUnknownGoalChangesNothing() {
        let goals = Self.goals(3)
        #expect(CountdownGoalBook.move(goalID: "g1", to: 1, in: goals).isEmpty)
        #expect(CountdownGoalBook.move(goalID: "nope", to: 0, in: goals).isEmpty)
        #expect(CountdownGoalBook.move(goalID: "g0", to: 0, in: Self.goals(1)).isEmpty)
    }

    @Test func moveRenumbersOnlyWhenNoGapIsLeft() {
        let dense = Self.goals(4, spacing: 1)
        let changes = CountdownGoalBook.move(goalID: "g3", to: 1, in: dense)
        let after = CountdownGoalBook.sorted(Self.apply(changes, to: dense))
        #expect(after.map(\.id) == ["g0", "g3", "g1", "g2"])
        #expect(after.map(\.priority) == [0, Self.step, 2 * Self.step, 3 * Self.step])
        #expect(!changes.contains { $0.id == "g0" })  // g0 kept priority 0: not written.
    }

    @Test func manyMovesIntoOneGapStayCorrect() {
        var goals = Self.goals(3)
        for round in 0..<60 {
            let id = round.isMultiple(of: 2) ? "g2" : "g0"
            goals = Self.apply(CountdownGoalBook.move(goalID: id, to: 1, in: goals), to: goals)
            #expect(CountdownGoalBook.sorted(goals)[1].id == id, "round \(round)")
        }
    }

    // MARK: - Two replicas

    /// A replica's view: each goal's priority register with its (timestamp, replica) stamp.
    struct Replica {
        struct Stamp: Comparable {
            var timestamp: Int
            var replica: Int
            static func < (a: Stamp, b: Stamp) -> Bool { (a.timestamp, a.replica) < (b.timestamp, b.replica) }
        }

        let replicaID: Int
        var goals: [String: CountdownGoal]
        var stamps: [String: Stamp] = [:]
        var clock = 0

        init(replicaID: Int, goals: [CountdownGoal]) {
            self.replicaID = replicaID
            self.goals = Dictionary(uniqueKeysWithValues: goals.map { ($0.id, $0) })
            for goal in goals { stamps[goal.id] = Stamp(timestamp: 0, replica: 0) }
        }

        var order: [String] { CountdownGoalBook.sorted(Array(goals.values)).map(\.id) }

        mutating func move(_ id: String, to position: Int) {
            for changed in CountdownGoalBook.move(goalID: id, to: position, in: Array(goals.values)) {
                clock += 1
                goals[changed.id] = changed
                stamps[changed.id] = Stamp(timestamp: clock, replica: replicaID)
            }
        }

        mutating func merge(from other: Replica) {
            for (id, stamp) in other.stamps where stamp > stamps[id]! {
                goals[id]!.priority = other.goals[id]!.priority
                stamps[id] = stamp
            }
            clock = max(clock, other.clock)
        }
    }

    static func mergeBoth(_ a: inout Replica, _ b: inout Replica) {
        let aBefore = a
        a.merge(from: b)
        b.merge(from: aBefore)
    }

    @Test func concurrentMovesOfDifferentGoalsBothTakeEffect() {
        var a = Replica(replicaID: 1, goals: Self.goals(5))
        var b = Replica(replicaID: 2, goals: Self.goals(5))
        a.move("g4", to: 0)
        b.move("g0", to: 4)
        Self.mergeBoth(&a, &b)
        #expect(a.order == b.order)
        #expect(a.order == ["g4", "g1", "g2", "g3", "g0"])
    }

    @Test func concurrentMovesOfOneGoalConvergeOnTheLaterStamp() {
        var a = Replica(replicaID: 1, goals: Self.goals(4))
        var b = Replica(replicaID: 2, goals: Self.goals(4))
        a.move("g2", to: 0)
        b.move("g2", to: 3)
        Self.mergeBoth(&a, &b)
        #expect(a.order == b.order)
        #expect(a.order == ["g0", "g1", "g3", "g2"])  // equal timestamps: replica 2 wins.
    }

    @Test func concurrentMovesIntoTheSameGapConverge() {
        var a = Replica(replicaID: 1, goals: Self.goals(4))
        var b = Replica(replicaID: 2, goals: Self.goals(4))
        a.move("g3", to: 1)
        b.move("g2", to: 1)
        Self.mergeBoth(&a, &b)
        #expect(a.order == b.order)
        #expect(a.order == ["g0", "g2", "g3", "g1"])  // equal priorities: creation, then id.
    }

    @Test(arguments: [0xC0FF_EE00 as UInt64, 0x5EED_0001, 0x2026_0308])
    func randomConcurrentReordersConvergeToOneOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let count = 6
        // Dense start priorities make renumbering (many writes per move) happen too.
        let start = Self.goals(count, spacing: Int(rng.next() % 2) == 0 ? 1 : Self.step)
        var a = Replica(replicaID: 1, goals: start)
        var b = Replica(replicaID: 2, goals: start)
        for _ in 0..<200 {
            for _ in 0..<Int(rng.next() % 3) {
                a.move("g\(rng.next() % UInt64(count))", to: Int(rng.next() % UInt64(count)))
            }
            for _ in 0..<Int(rng.next() % 3) {
                b.move("g\(rng.next() % UInt64(count))", to: Int(rng.next() % UInt64(count)))
            }
            switch rng.next() % 4 {
            case 0: a.merge(from: b)
            case 1: b.merge(from: a)
            case 2: Self.mergeBoth(&a, &b)
            default: break
            }
        }
        Self.mergeBoth(&a, &b)
        #expect(a.order == b.order, "seed \(seed): replay with swift test --filter CountdownReorderTests")
        #expect(Set(a.order) == Set((0..<count).map { "g\($0)" }), "seed \(seed)")
    }
}
