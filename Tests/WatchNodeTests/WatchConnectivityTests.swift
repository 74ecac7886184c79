@testable import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The watch app over real WatchConnectivity channels: the simulated network (virtual clock,
/// seeded, faults) between the watch app and a stand-in phone that records what arrives.
@Suite struct WatchConnectivityTests {
    @Test func liveMetricsReachThePhoneOnlyWhileReachable() throws {
        let net = try makeWatchNetwork(seed: 11)
        let t0 = net.now
        net.onWatch("workout start running")
        for bpm in [120, 125, 130] {
            net.advance(by: 5 * second)
            net.onWatch("hr \(bpm)")
        }
        let live = net.phone.app.liveMetrics
        #expect(live.count == 4, "the start and three samples")
        #expect(live.last?["heartRateBpm"] == .double(130))
        #expect(live.last?["startMs"] == .int(t0), "the phone learns when the workout started")
        #expect(net.watchValue("messages sent")?.intValue == 4)
        #expect(net.watchValue("messages failed")?.intValue == 0)

        net.setLink(up: false)
        net.runUntilQuiet(maxMs: 10_000)
        for bpm in [140, 141, 142] {
            net.advance(by: 5 * second)
            net.onWatch("hr \(bpm)")
        }
        #expect(net.phone.app.liveMetrics.count == 4, "nothing crosses while out of range")
        #expect(net.watchValue("mirror skipped")?.intValue == 3)
        #expect(net.watchValue("mirror last-skip")?.stringValue == "phone not reachable")

        net.setLink(up: true)
        #expect(net.runUntilQuiet())
        #expect(net.phone.app.liveMetrics.count == 5, "reachable again: the latest metrics go at once")
        #expect(net.phone.app.liveMetrics.last?["heartRateBpm"] == .double(142))
        net.onWatch("workout end")
        #expect(net.phone.app.messages.last == MirrorStoppedMessage.make(workoutID: "workout-\(t0)"))
        #expect(net.watchValue("messages failed")?.intValue == 0)
    }

    @Test func finishedWorkoutSampleFileArrivesAndDecodesToTheSavedSamples() throws {
        let net = try makeWatchNetwork(seed: 12)
        let id = "workout-\(net.now)"
        net.onWatch("workout start cycling")
        for i in 0..<40 {
            net.advance(by: 3 * second)
            net.onWatch("hr \(110 + i % 30)")
            if i % 10 == 9 { net.onWatch("energy 4.5") }
        }
        net.onWatch("workout end")
        #expect(net.runUntilQuiet())
        let received = try #require(net.phone.app.files.first)
        #expect(net.phone.app.files.count == 1)
        #expect(received.name == "\(id).samples.plist")
        #expect(received.metadata?["sampleCount"] == 44)
        let bytes = try net.phoneFiles.readAll("kept/\(received.name)")
        guard case .success(let file) = WorkoutSampleFile.decode(bytes) else {
            Issue.record("the received file does not decode")
            return
        }
        let saved = HealthSampleSeries.allSamples(in: net.watch.ctx.replica).filter { $0.id.hasPrefix(id + ".") }
        #expect(file.samples.sorted { $0.id < $1.id } == saved.sorted { $0.id < $1.id })
        #expect(saved.count == 44)
        #expect(file.record == net.watch.ctx.replica.record(WorkoutRecord.self, id: id))
        #expect(net.watchValue("files delivered")?.intValue == 1)
        #expect(net.watchValue("files outstanding")?.intValue == 0)
        #expect(net.watchFiles.list(WatchApp.outgoingFilesDirectory).isEmpty, "the sent file is deleted once delivered")
        #expect(net.phoneFiles.list(LinkSession.inboxDirectory).isEmpty)
    }

    @Test func startWorkoutMessageStartsACreditedWorkoutAndIsAnswered() throws {
        let net = try makeWatchNetwork(seed: 13)
        let runStart = net.now - 3 * 60 * second
        let request = "{\"startWorkout\": {\"activity\": \"running\", \"startMs\": \(runStart)}}"
        let id = try #require(net.command(.phone, "message \(request)").value.intValue)
        #expect(net.runUntilQuiet())
        #expect(net.phone.app.replies[MessageID(id)] == .dictionary(["ok": true]))
        #expect(net.watchValue("workout state")?.stringValue == "running")
        #expect(net.watchValue("workout id")?.stringValue == "workout-\(runStart)")
        #expect(net.watchValue("workout start")?.intValue == runStart)
        #expect((3 * 60 * second..<3 * 60 * second + second).contains(net.watchValue("workout elapsed")?.intValue ?? 0))
        #expect(net.watchValue("messages received")?.intValue == 1)
        // The same request again (a fallback that crossed the reply) changes nothing.
        net.command(.phone, "send \(request)")
        #expect(net.runUntilQuiet())
        #expect(net.watchValue("workout id")?.stringValue == "workout-\(runStart)")
        // A data message or an unknown one is answered with an error.
        let data = try #require(net.command(.phone, "data").value.intValue)
        let unknown = try #require(net.command(.phone, "message {\"hello\": 1}").value.intValue)
        #expect(net.runUntilQuiet())
        #expect(net.phone.app.replies[MessageID(data)]?.isData == false)
        guard case .dictionary(let d)? = net.phone.app.replies[MessageID(unknown)] else {
            Issue.record("no reply to the unknown message")
            return
        }
        #expect(d["error"] != nil)
    }

    @Test func aPhoneMessageDoesNotWakeTheWatchAppButUserInfoWaitsForIt() throws {
        let net = try makeWatchNetwork(seed: 14)
        net.onWatch("app background")
        #expect(net.watchValue("app running") == .bool(false))
        let runStart = net.now - 60 * second
        let request = "{\"startWorkout\": {\"activity\": \"running\", \"startMs\": \(runStart)}}"
        let id = try #require(net.command(.phone, "message \(request)").value.intValue)
        #expect(net.runUntilQuiet())
        #expect(net.phone.app.failures[MessageID(id)] == .notReachable)
        #expect(net.watchValue("app running") == .bool(false), "a phone message does not wake the watch app")
        #expect(net.watchValue("workout state")?.stringValue == "none")
        // As user info it is kept until the app runs, then applied, credited from the run's start.
        net.command(.phone, "send \(request)")
        #expect(net.runUntilQuiet())
        #expect(net.watch.ctx.hasContentPending)
        net.advance(by: 10 * 60 * second)
        net.onWatch("app foreground")
        #expect(net.watchValue("workout state")?.stringValue == "running")
        #expect(net.watchValue("workout start")?.intValue == runStart, "credited from the run's start")
        #expect((11 * 60 * second..<11 * 60 * second + second).contains(net.watchValue("workout elapsed")?.intValue ?? 0))
    }

    @Test func complicationPushesReachTheGaugeOnEitherChannel() throws {
        let net = try makeWatchNetwork(seed: 15)
        for n in 1...51 {
            net.command(.phone, "push {\"complication\": {\"todaySteps\": \(n * 100), \"stepGoal\": 12000, \"savedAt\": \(net.now)}}")
            #expect(net.runUntilQuiet())
            net.advance(by: 30 * second)
        }
        #expect(net.phone.app.pushes.filter { $0 == "complication" }.count == 50)
        #expect(net.phone.app.pushes.last == "ordinary", "the 51st of the day goes as ordinary user info")
        #expect(net.watchValue("complication pushes complication")?.intValue == 50)
        #expect(net.watchValue("complication pushes ordinary")?.intValue == 1)
        #expect(net.watchValue("complication value")?.intValue == 5_100, "the gauge shows the last push")
        #expect(net.watchValue("complication max")?.intValue == 12_000)
    }

    @Test func applicationContextFromThePhoneIsRecordedAndSurvivesACrash() throws {
        let net = try makeWatchNetwork(seed: 16)
        #expect(net.watchValue("context settings step-goal") == nil)
        net.command(.phone, "context {\"settings\": {\"stepGoal\": 12000, \"language\": \"ja\"}}")
        net.command(.phone, "context {\"settings\": {\"stepGoal\": 13000, \"language\": \"ja\"}}")
        #expect(net.runUntilQuiet())
        #expect(net.watchValue("context settings step-goal")?.intValue == 13_000)
        #expect(net.watchValue("context settings language")?.stringValue == "ja")
        try net.crash(.watch)
        #expect(net.runUntilQuiet())
        #expect(net.watchValue("context settings stepGoal")?.intValue == 13_000, "receivedApplicationContext is durable")
    }
}
