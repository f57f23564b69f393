##gnnstream 1
@graph id=0 nodes=0 edges=0
@graph id=1 nodes=1 edges=0
@end records=2
