import BadgeMQTT
import Glibc

exit(Bridge.main(Array(CommandLine.arguments.dropFirst())))
