import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// Workout recording through the node: commands, refusals, saving, the file effect.
@Suite struct WatchAppWorkoutTests {
    @Test func pausedTimeIsNotCountedInElapsedAcrossSeveralPauses() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        watch.run("workout start walking", at: morning)
        // Running 0–60 s, paused 60–90, running 90–150, paused 150–300, running 300–330,
        // paused 330–400, running 400–460 → 60 + 60 + 30 + 60 = 210 s.
        let calls: [(EpochMs, String)] = [
            (60, "pause"), (90, "resume"), (150, "pause"), (300, "resume"), (330, "pause"), (400, "resume"),
        ]
        for (s, call) in calls { #expect(watch.run("workout \(call)", at: morning + s * second).isOK, "\(call) at \(s) s") }
        #expect(watch.value("workout elapsed", at: morning + 200 * second)?.intValue == 120 * second)
        #expect(watch.value("workout elapsed", at: morning + 360 * second)?.intValue == 150 * second)
        let end = watch.run("workout end", at: morning + 460 * second)
        #expect(end.value["elapsed"]?.intValue == 210 * second)
        #expect(end.value["events"]?.arrayValue?.count == 6)
        #expect(watch.value("workouts last elapsed", at: morning + 500 * second)?.intValue == 210 * second)
        #expect(watch.value("workout state", at: morning + 500 * second)?.stringValue == "none")
    }

    @Test func illegalCallIsRefusedNamingTheStateAndChangesNothing() throws {
        let store = MemoryStore()
        let watch = try makeWatchEngine(store: store, now: morning)
        #expect(watch.run("workout prepare running", at: morning).isOK)
        let appTable = StoreTable("app_local")
        let before = try store.scan(appTable).map { $0.key + $0.value }, digest = watch.ctx.replica.digestHex()
        let pause = watch.run("workout pause", at: morning + second)
        #expect(!pause.isOK && pause.text == "cannot pause: session is prepared")
        #expect(try store.scan(appTable).map { $0.key + $0.value } == before, "a refusal writes nothing")
        #expect(watch.ctx.replica.digestHex() == digest)
        #expect(watch.value("workout state", at: morning + second)?.stringValue == "prepared")
        #expect(watch.value("errors last", at: morning + second)?.stringValue == "cannot pause: session is prepared")
        #expect(watch.run("workout start", at: morning + 2 * second).isOK)
        #expect(watch.run("workout resume", at: morning + 3 * second).text == "cannot resume: session is running")
        watch.run("workout end", at: morning + 4 * second)
        #expect(watch.run("workout pause", at: morning + 5 * second).text == "cannot pause: no active workout session")
    }

    @Test func secondSessionEndsTheFirstWithAnotherWorkoutSessionError() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        watch.run("workout start running", at: morning)
        watch.run("hr 140", at: morning + 10 * second)
        let replacing = watch.run("workout start cycling", at: morning + 20 * second)
        #expect(replacing.isOK)
        #expect(replacing.text.contains("HKErrorAnotherWorkoutSession"))
        #expect(watch.value("errors last", at: morning + 20_000)?.stringValue?.contains("another workout session") == true)
        #expect(watch.value("workout activity", at: morning + 20_000)?.stringValue == "cycling")
        #expect(watch.value("workouts", at: morning + 20_000)?.intValue == 1, "the first one was saved")
        #expect(watch.value("workouts last state", at: morning + 20_000)?.stringValue == "ended")
        #expect(watch.value("samples count", at: morning + 20_000)?.intValue == 1)
    }

    @Test func workoutEndsAndSavesAfterTheWallClockStepsBackPastItsLastEvent() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        watch.run("workout start running", at: morning)
        for i in 1...10 { #expect(watch.run("hr \(120 + i)", at: morning + EpochMs(i) * 5 * second).isOK) }
        #expect(watch.run("workout pause", at: morning + 60 * second).isOK)
        #expect(watch.run("workout resume", at: morning + 90 * second).isOK)
        // The wall clock steps back 30 s: now is before the resume. The workout's clock holds
        // at the resume, so the end is dated there and everything recorded is saved.
        let end = watch.run("workout end", at: morning + 70 * second)
        #expect(end.isOK, "\(end.text)")
        #expect(end.value["samples"]?.intValue == 10)
        #expect(end.value["elapsed"]?.intValue == 60 * second, "0–60 s running, paused 60–90 s, ended at 90 s")
        #expect(watch.value("workouts", at: morning + 70 * second)?.intValue == 1)
        #expect(watch.value("workout state", at: morning + 70 * second)?.stringValue == "none")
        #expect(watch.value("errors count", at: morning + 70 * second)?.intValue == 0)
    }

    @Test func pauseResumeAndSamplesWorkWhileTheWallClockIsBehindTheWorkout() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        let hour = 60 * 60 * second
        watch.run("workout start running", at: morning)
        #expect(watch.run("hr 130", at: morning + 60 * second).isOK)
        // An hour back: before the workout began. Samples and calls are dated at the latest
        // time the workout recorded.
        let back = morning - hour
        #expect(watch.run("hr 131", at: back + 70 * second).isOK)
        #expect(watch.run("energy 5", at: back + 75 * second).isOK)
        #expect(watch.run("workout pause", at: back + 80 * second).isOK)
        #expect(watch.run("workout resume", at: back + 90 * second).isOK)
        #expect(watch.value("workout samples", at: back + 90 * second)?.intValue == 3)
        // The wall clock comes back; the workout's time runs on from where it stood.
        let end = watch.run("workout end", at: morning + 120 * second)
        #expect(end.isOK, "\(end.text)")
        #expect(end.value["samples"]?.intValue == 3)
        #expect(end.value["elapsed"]?.intValue == 120 * second, "the pause and resume fell at the same instant, 60 s")
        #expect(watch.value("errors count", at: morning + 120 * second)?.intValue == 0)
    }

    @Test func outOfBoundsSamplesAreRejectedWithALoggedReason() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        watch.run("workout start", at: morning)
        _ = watch.drainOutput()
        for (line, reason) in [("hr 0", "outside 0 < bpm"), ("hr 251", "outside 0 < bpm"), ("energy -1", "active energy -1.0 kcal")] {
            let r = watch.run(line, at: morning + second)
            #expect(!r.isOK && r.text.contains(reason), "\(line)")
            let logs = watch.drainOutput().compactMap { o -> String? in if case .log(.warning, let m) = o { m } else { nil } }
            #expect(logs.contains { $0.contains("rejected") && $0.contains(reason) }, "\(line): \(logs)")
        }
        #expect(watch.run("hr 250", at: morning + second).isOK, "exactly 250 bpm is accepted")
        #expect(watch.value("workout samples", at: morning + second)?.intValue == 1)
    }

    @Test func endWritesTheRecordAndEverySampleAndTheFullResolutionFile() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        watch.run("location indoor", at: morning)
        watch.run("workout start", at: morning)
        var t = morning
        for i in 0..<20 {
            t += 5 * second
            watch.run("hr \(120 + i)", at: t)
        }
        watch.run("energy 12.25", at: t)
        #expect(watch.run("workout end", at: t + second).isOK)
        #expect(watch.value("samples count", at: t + second)?.intValue == 21)
        #expect(watch.value("samples count heartRate", at: t + second)?.intValue == 20)
        #expect(watch.value("count series", at: t + second)?.intValue == 1, "21 samples fit one series record")
        #expect(watch.value("count sample", at: t + second)?.intValue == 0, "no sample is written one record each")
        #expect(watch.value("rings energy value", at: t + second)?.doubleValue == 12.25, "the saved series counts today")
        #expect(watch.value("rings energy value", at: t + 86_400_000)?.doubleValue == 0, "and not tomorrow")
        let records = watch.ctx.replica.all(WorkoutRecord.self)
        #expect(records.count == 1 && records[0].location == .indoor && records[0].heartRateSampleCount == 20)
        guard case .transferFile(let name, let bytes, let metadata)? = watch.app.link.lastFile else {
            Issue.record("no file effect")
            return
        }
        #expect(name == "\(records[0].id).samples.plist")
        #expect(metadata["sampleCount"]?.intValue == 21 && metadata["sha256"]?.stringValue == hexString(SHA256.hash(bytes)))
        guard case .success(let file) = WorkoutSampleFile.decode(bytes) else {
            Issue.record("the file does not decode")
            return
        }
        let replicated = HealthSampleSeries.allSamples(in: watch.ctx.replica).sorted { $0.id < $1.id }
        #expect(file.samples == replicated, "the file carries exactly the replicated samples")
        #expect(file.record == records[0])
        #expect(watch.value("files sent", at: t + second)?.intValue == 1)
    }

    @Test func crownScrollsAndClampsAndStartUsesThePicker() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        #expect(watch.run("crown -1", at: morning).value["activity"] == "running")
        watch.run("crown +1", at: morning)
        watch.run("crown +1", at: morning)
        #expect(watch.run("crown +1", at: morning).value["activity"] == "cycling")
        watch.run("crown -1", at: morning)
        watch.run("workout start", at: morning)
        #expect(watch.value("workout activity", at: morning)?.stringValue == "walking")
        #expect(!watch.run("crown 1x", at: morning).isOK)
    }

    @Test func energyReportsTileTheWorkoutAndSkipPauses() throws {
        let watch = try makeWatchEngine(store: MemoryStore(), now: morning)
        watch.run("workout start", at: morning)
        let first = watch.run("energy 3", at: morning + 60 * second)
        #expect(first.value["fromMs"]?.intValue == morning)
        watch.run("workout pause", at: morning + 90 * second)
        watch.run("workout resume", at: morning + 120 * second)
        let next = watch.run("energy 2", at: morning + 180 * second)
        #expect(next.value["fromMs"]?.intValue == morning + 120_000, "starts at the resume, not inside the pause")
        watch.run("workout pause", at: morning + 185 * second)
        #expect(watch.run("energy 1", at: morning + 190 * second).text == "rejected: workout is paused")
        watch.run("workout resume", at: morning + 195 * second)
        let over = watch.run("energy 1 --over 5s", at: morning + 200_000)
        #expect(over.value["fromMs"]?.intValue == morning + 195_000)
        #expect(watch.value("workout energy", at: morning + 200_000)?.doubleValue == 6)
        #expect(watch.value("rings energy value", at: morning + 200_000)?.doubleValue == 6, "the live workout counts today")
    }
}
