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

    /// A file this storage creates has its name synced (the directories from its own up to the
    /// root) at its first `sync`, once: `fdatasync` alone keeps its bytes but may lose its name.
    @Test func aCreatedFileHasItsNameSyncedAtItsFirstSync() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = try DirectoryFileStorage(root: root, syncsToDisk: true)
        try files.write("inbox/new/part-3", offset: 0, bytes: [1, 2][...])
        #expect(files.namesToSync == ["inbox/new/part-3"])
        try files.sync("inbox/new/part-3")
        #expect(files.namesToSync.isEmpty)
        try files.write("inbox/new/part-3", offset: 2, bytes: [3][...])
        try files.sync("inbox/new/part-3")
        #expect(files.namesToSync.isEmpty, "an existing file's name is not synced again")
        #expect(try files.readAll("inbox/new/part-3") == [1, 2, 3])

        try files.write("inbox/part-4", offset: 0, bytes: [4][...])
        try files.move(from: "inbox/part-4", to: "received/file.bin")
        #expect(files.namesToSync.isEmpty, "a move syncs the destination's directories itself")
        try files.write("inbox/part-5", offset: 0, bytes: [5][...])
        files.remove("inbox/part-5")
        #expect(files.namesToSync.isEmpty)

        let unsynced = try DirectoryFileStorage(root: root, syncsToDisk: false)
        try unsynced.write("inbox/part-6", offset: 0, bytes: [6][...])
        #expect(unsynced.namesToSync.isEmpty, "without syncsToDisk nothing is synced")
    }

    @Test func theDirectoryOfAPath() {
        #expect(DirectoryFileStorage.directory(of: "/a/b/c") == "/a/b")
        #expect(DirectoryFileStorage.directory(of: "/c") == "/")
        #expect(DirectoryFileStorage.directory(of: "c") == ".")
    }
}
