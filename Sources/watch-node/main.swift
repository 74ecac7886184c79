#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhoneWatch

exit(WatchNodeMain.run(Array(CommandLine.arguments.dropFirst())))
