import BadgeTrayProgram
import Glibc

exit(TrayProgram.main(Array(CommandLine.arguments.dropFirst())))
