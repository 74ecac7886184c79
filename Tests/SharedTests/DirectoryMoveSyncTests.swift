#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import PeerLinkCore
@testable import PeerLinkPOSIX

/// `DirectoryFileStorage.move` with `syncsToDisk`: the rename, then an `fsync` of the
/// directories from the destination's up to the root, and the source's (what makes the clock
/// floor's renewal and a received file's inbox name survive a power loss). The syncs cannot
/// be observed from here (strace shows them); these check that the path through them moves
/// files as before, that a move that cannot rename says which, and that `syncDirectory`
/// names a directory it cannot sync (the move itself, done once renamed, does not fail then).
@Suite struct DirectoryMoveSyncTests {
    func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "peerlink-move-\(getpid())-\(UInt32.random(in: 0 ..< .max))"
        try makeDirectories(dir)
        return dir
    }

    @Test func movesWithinADirectoryAndIntoANewOneWhenSyncing() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try DirectoryFileStorage(root: root, syncsToDisk: true)
        try files.replaceAll("floor.new", with: [1, 2, 3])
        try files.move(from: "floor.new", to: "floor")
        #expect(try files.readAll("floor") == [1, 2, 3])
        #expect(!files.exists("floor.new"))

        try files.replaceAll("inbox/part-7", with: [9])
        try files.move(from: "inbox/part-7", to: "received/deep/file.bin")
        #expect(try files.readAll("received/deep/file.bin") == [9])
        #expect(!files.exists("inbox/part-7"))
    }

    @Test func aMissingSourceIsAnErrorNamingTheMove() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try DirectoryFileStorage(root: root, syncsToDisk: true)
        do {
            try files.move(from: "absent", to: "there")
            Issue.record("a missing file was moved")
        } catch let e as FileStorageError {
            #expect(e.description.hasPrefix("move absent to there: rename"))
        }
        #expect(!files.exists("there"))
    }

    @Test func syncingADirectoryThatIsNotThereSaysWhich() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            try DirectoryFileStorage.syncDirectory(root + "/gone", for: "move a to b")
            Issue.record("a directory that does not exist was synced")
        } catch let e as FileStorageError {
            #expect(e.description.hasPrefix("move a to b: open \(root)/gone"))
        }
        try DirectoryFileStorage.syncDirectory(root, for: "move a to b")
    }

    /// A file's name is made durable at its first sync in the storage's lifetime: the
    /// directories from its own up to the root are synced then, once (`fdatasync` alone keeps
    /// the bytes, and may lose the name). A new storage over the same files (a restart, after
    /// a kill that came before the part's first sync) does it again; a move syncs the
    /// destination's directories itself.
    @Test func aFilesNameIsSyncedAtItsFirstSyncInTheStoragesLifetime() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try DirectoryFileStorage(root: root, syncsToDisk: true)
        try files.write("inbox/new/part-3", offset: 0, bytes: [1, 2][...])
        #expect(files.directorySyncs == 0, "a write syncs nothing")
        try files.sync("inbox/new/part-3")
        #expect(files.directorySyncs == 3, "inbox/new, inbox and the root")
        try files.write("inbox/new/part-3", offset: 2, bytes: [3][...])
        try files.sync("inbox/new/part-3")
        #expect(files.directorySyncs == 3, "a name made durable is not synced again")
        #expect(try files.readAll("inbox/new/part-3") == [1, 2, 3])

        let restarted = try DirectoryFileStorage(root: root, syncsToDisk: true)
        try restarted.write("inbox/new/part-3", offset: 3, bytes: [4][...])
        try restarted.sync("inbox/new/part-3")
        #expect(restarted.directorySyncs == 3, "the part an earlier process created: its name too")

        try restarted.move(from: "inbox/new/part-3", to: "received/file.bin")
        #expect(restarted.directorySyncs == 6, "received and the root, then the source's inbox/new")
        try restarted.sync("received/file.bin")
        #expect(restarted.directorySyncs == 6, "moved in: its name is durable already")
        try restarted.write("inbox/new/part-3", offset: 0, bytes: [5][...])
        try restarted.sync("inbox/new/part-3")
        #expect(restarted.directorySyncs == 9, "a file made again under a moved-away name")
        restarted.remove("inbox/new/part-3")
        #expect(!restarted.namesSynced.contains("inbox/new/part-3"))

        let unsynced = try DirectoryFileStorage(root: root, syncsToDisk: false)
        try unsynced.write("inbox/part-6", offset: 0, bytes: [6][...])
        try unsynced.sync("inbox/part-6")
        #expect(unsynced.directorySyncs == 0, "without syncsToDisk nothing is synced")
    }

    /// The clock floor's renewal (`ClockFloor.renew`, through `replaceAll(_:with:through:)`):
    /// the new floor's content is synced, then moved over the old one, and only the move
    /// syncs directories: `clock` and the root, once each. The temporary name is never made
    /// durable on its own (it was, two syncs more at every renewal).
    @Test func aFloorRenewalSyncsItsDirectoriesOnceThroughItsMove() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try DirectoryFileStorage(root: root, syncsToDisk: true)
        var floor = ClockFloor.load(files)
        let first = floor.renew(clock: HLCTimestamp(wallMs: 1_000_000, counter: 0, replica: 1), files: files)
        #expect(first)
        #expect(files.directorySyncs == 2, "clock and the root, by the move")
        #expect(!files.exists(ClockFloor.path + ".new"))
        #expect(ClockFloor.load(files).floorMs == floor.floorMs)
        #expect(floor.floorMs == 1_000_000 + ClockFloor.leaseMs)
        let second = floor.renew(clock: HLCTimestamp(wallMs: 1_000_000 + ClockFloor.leaseMs, counter: 0, replica: 1), files: files)
        #expect(second)
        #expect(files.directorySyncs == 4, "each renewal: the move's two")
        #expect(ClockFloor.load(files).floorMs == 1_000_000 + 2 * ClockFloor.leaseMs)
    }

    @Test func theDirectoryOfAPath() {
        #expect(DirectoryFileStorage.directory(of: "/a/b/c") == "/a/b")
        #expect(DirectoryFileStorage.directory(of: "/c") == "/")
        #expect(DirectoryFileStorage.directory(of: "c") == ".")
    }
}
