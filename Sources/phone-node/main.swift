#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhoneWatch

exit(PhoneNodeMain.run(Array(CommandLine.arguments.dropFirst())))
