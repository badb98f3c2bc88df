import BadgeWebProgram
import Glibc

exit(WebProgram.main(Array(CommandLine.arguments.dropFirst())))
