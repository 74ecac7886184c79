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

    @Test func theDirectoryOfAPath() {
        #expect(DirectoryFileStorage.directory(of: "/a/b/c") == "/a/b")
        #expect(DirectoryFileStorage.directory(of: "/c") == "/")
        #expect(DirectoryFileStorage.directory(of: "c") == ".")
    }
}
