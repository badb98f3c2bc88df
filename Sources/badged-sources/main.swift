import BadgeSourcesProgram
import Glibc

exit(SourcesProgram.main(Array(CommandLine.arguments.dropFirst())))
