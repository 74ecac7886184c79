import Foundation
import Testing
import PeerLinkCore

/// Apple: a received file lies in the app's inbox only while `session(_:didReceive:)` runs;
/// the app must move it elsewhere in the callback, or the system deletes it when it returns.
@Suite struct ReceivedFileTests {
    @Test func aReceivedFileIsDeletedWhenTheCallbackReturnsUnlessTheAppMovedIt() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 watch send-file keep-samples.bin 3000
            +5s watch send-file notes.bin 2000
            +5s phone send-file drop.bin 700
            09:02:00 expect converged
            """)
        defer { run.cleanUp() }
        let phoneLog = run.strings(.phone, "log")
        // Both files were at their URL during the callback.
        #expect(phoneLog.filter { $0.hasPrefix("file ") } == ["file keep-samples.bin exists true", "file notes.bin exists true"], "\(phoneLog)")
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("file ") } == ["file drop.bin exists true"])
        // Afterwards, the inbox URL of each is gone; the one the app moved stays where it put it.
        #expect(run.bools(.phone, "received-exist") == [false, false])
        #expect(run.bools(.phone, "kept-exist") == [true])
        #expect(run.bools(.watch, "received-exist") == [false])
        #expect(run.bools(.watch, "kept-exist") == [])
        // The senders' transfers finished without error.
        #expect(run.strings(.watch, "log").filter { $0.hasPrefix("finished-file") } == ["finished-file keep-samples.bin ok", "finished-file notes.bin ok"])
        #expect(run.strings(.phone, "log").filter { $0.hasPrefix("finished-file") } == ["finished-file drop.bin ok"])
    }
}

/// Apple: a file transfer's `progress` follows the bytes sent; once `didFinish` reports it
/// delivered, it is complete and `isTransferring` is false.
@Suite struct FileTransferProgressTests {
    @Test func aDeliveredFileTransferIsCompleteAndNoLongerTransferring() throws {
        let run = try WCRun(PlainSide.self, PlainSide.self, """
            09:00:30 watch send-file big.bin 300000
            +1s phone send-file small.bin 1
            09:03:00 expect converged
            """)
        defer { run.cleanUp() }
        #expect(run.strings(.watch, "file-progress") == ["big.bin 300000/300000 transferring false"])
        #expect(run.strings(.phone, "file-progress") == ["small.bin 1/1 transferring false"])
    }
}
