##gnnstream 1
@graph id=0 nodes=3 edges=2 mask_fraction=0.2 masked_edges=1
0	1
1	2
@end records=1
