#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PeerLinkCore

/// Pairing on the command line, as every node built on PeerLinkPOSIX does it: the phone
/// makes a secret and prints its code; the watch stores the code it reads from standard input
/// (or a 0600 file), never from an argument or the environment.
public enum NodePairing {
    /// Makes a pairing secret (32 random bytes) in `stateDirectory` (made 0700; the secret
    /// file 0600) and returns its code, to be given to the watch.
    public static func create(stateDirectory: String) throws -> String {
        let held = try StateDirectory(path: stateDirectory, role: .phone)
        defer { withExtendedLifetime(held) {} }
        try makePrivateDirectory(stateDirectory)  // an existing directory others could read is tightened
        let secret = secureRandomBytes(PairingFile.secretBytes)
        try PairingFile.write(secret, directory: stateDirectory)
        return PairingFile.code(for: secret)
    }

    /// Reads a pairing code from `file` (nil: standard input), checks it, and stores its secret
    /// in the state directory (made 0700; the secret file 0600). A code that is not one, or a
    /// `file` group or others may read (it must be 0600 or stricter), is a usage error: nothing
    /// is stored.
    public static func storeCode(from file: String?, stateDirectory: String) throws {
        let text: String
        if let file {
            // Like ssh with a private key: a code other users can read is no secret any more.
            var st = stat()
            guard stat(file, &st) == 0 else { throw UsageError("cannot read the pairing code from \(file)") }
            guard st.st_mode & 0o077 == 0 else {
                throw UsageError("\(file) can be read by other users (mode \(String(st.st_mode & 0o777, radix: 8))): keep a pairing code in a file only you can read (chmod 600 \(file))")
            }
            guard let t = readTextFile(file) else { throw UsageError("cannot read the pairing code from \(file)") }
            text = t
        } else {
            if isatty(0) == 1 { StandardError.write("pairing code (as `phone-node pair` printed it): ") }
            var bytes: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 512)
            while bytes.count < 4096 {
                let n = read(0, &buf, buf.count)
                if n <= 0 { break }
                bytes += buf[0..<n]
                if bytes.contains(0x0A) { break }
            }
            text = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
        }
        switch PairingFile.parse(code: text.trimmingCharacters()) {
        case .failure(let e): throw UsageError("not a pairing code: \(e)")
        case .success(let secret):
            let held = try StateDirectory(path: stateDirectory, role: .watch)  // not while a node runs on it
            defer { withExtendedLifetime(held) {} }
            try makePrivateDirectory(stateDirectory)  // an existing directory others could read is tightened
            try PairingFile.write(secret, directory: stateDirectory)
        }
    }
}
