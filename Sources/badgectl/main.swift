import BadgeCtl
import Glibc

exit(BadgeCtl.main(Array(CommandLine.arguments.dropFirst())))
