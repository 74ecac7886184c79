#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NodeMain

exit(WatchNodeMain.run(Array(CommandLine.arguments.dropFirst())))
