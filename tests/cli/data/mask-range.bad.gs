##gnnstream 1
@graph id=0 nodes=4 edges=3
0	1
1	2
2	9
@end records=1
