import BadgeCtlSession
import Glibc

exit(SessionCommands.main(Array(CommandLine.arguments.dropFirst())))
