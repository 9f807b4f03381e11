print("darknet-bench")
