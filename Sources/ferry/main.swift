import FerryCLI

#if canImport(Glibc)
import Glibc
#endif

exit(FerryMain.run(Array(CommandLine.arguments.dropFirst())))
