##gnnstream 1
@graph id="1\n2" nodes=2 edges=0
@end
